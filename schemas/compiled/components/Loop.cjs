// Generated from schemas/components/Loop.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Loop.schema.json","title":"Loop params","description":"Repeats its children until a termination condition holds or maximum_loop_count rounds have run.","type":"object","properties":{"loop_variables":{"type":"array","items":{"type":"object","properties":{"variable":{"type":"string"},"input_mode":{"type":"string"},"type":{"type":"string"},"value":true}}},"loop_termination_condition":{"type":"array","items":{"type":"object","properties":{"variable":{"type":"string"},"operator":{"type":"string"},"input_mode":{"enum":["constant","variable",null,""]},"value":true}}},"maximum_loop_count":{"type":"integer","minimum":0},"logical_operator":{"enum":["and","or"]}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Loop.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.loop_variables !== undefined){
let data0 = data.loop_variables;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.variable !== undefined){
let data2 = data1.variable;
if(typeof data2 !== "string"){
const err0 = {instancePath:instancePath+"/loop_variables/" + i0+"/variable",schemaPath:"#/properties/loop_variables/items/properties/variable/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.loop_variables.items.properties.variable.type,parentSchema:schema31.properties.loop_variables.items.properties.variable,data:data2};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data1.input_mode !== undefined){
let data3 = data1.input_mode;
if(typeof data3 !== "string"){
const err1 = {instancePath:instancePath+"/loop_variables/" + i0+"/input_mode",schemaPath:"#/properties/loop_variables/items/properties/input_mode/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.loop_variables.items.properties.input_mode.type,parentSchema:schema31.properties.loop_variables.items.properties.input_mode,data:data3};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data1.type !== undefined){
let data4 = data1.type;
if(typeof data4 !== "string"){
const err2 = {instancePath:instancePath+"/loop_variables/" + i0+"/type",schemaPath:"#/properties/loop_variables/items/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.loop_variables.items.properties.type.type,parentSchema:schema31.properties.loop_variables.items.properties.type,data:data4};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
else {
const err3 = {instancePath:instancePath+"/loop_variables/" + i0,schemaPath:"#/properties/loop_variables/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.loop_variables.items.type,parentSchema:schema31.properties.loop_variables.items,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath:instancePath+"/loop_variables",schemaPath:"#/properties/loop_variables/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.loop_variables.type,parentSchema:schema31.properties.loop_variables,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.loop_termination_condition !== undefined){
let data5 = data.loop_termination_condition;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
let data6 = data5[i1];
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
if(data6.variable !== undefined){
let data7 = data6.variable;
if(typeof data7 !== "string"){
const err5 = {instancePath:instancePath+"/loop_termination_condition/" + i1+"/variable",schemaPath:"#/properties/loop_termination_condition/items/properties/variable/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.loop_termination_condition.items.properties.variable.type,parentSchema:schema31.properties.loop_termination_condition.items.properties.variable,data:data7};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data6.operator !== undefined){
let data8 = data6.operator;
if(typeof data8 !== "string"){
const err6 = {instancePath:instancePath+"/loop_termination_condition/" + i1+"/operator",schemaPath:"#/properties/loop_termination_condition/items/properties/operator/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.loop_termination_condition.items.properties.operator.type,parentSchema:schema31.properties.loop_termination_condition.items.properties.operator,data:data8};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data6.input_mode !== undefined){
let data9 = data6.input_mode;
if(!((((data9 === "constant") || (data9 === "variable")) || (data9 === null)) || (data9 === ""))){
const err7 = {instancePath:instancePath+"/loop_termination_condition/" + i1+"/input_mode",schemaPath:"#/properties/loop_termination_condition/items/properties/input_mode/enum",keyword:"enum",params:{allowedValues: schema31.properties.loop_termination_condition.items.properties.input_mode.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.loop_termination_condition.items.properties.input_mode.enum,parentSchema:schema31.properties.loop_termination_condition.items.properties.input_mode,data:data9};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath:instancePath+"/loop_termination_condition/" + i1,schemaPath:"#/properties/loop_termination_condition/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.loop_termination_condition.items.type,parentSchema:schema31.properties.loop_termination_condition.items,data:data6};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath:instancePath+"/loop_termination_condition",schemaPath:"#/properties/loop_termination_condition/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.loop_termination_condition.type,parentSchema:schema31.properties.loop_termination_condition,data:data5};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.maximum_loop_count !== undefined){
let data10 = data.maximum_loop_count;
if(!((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10)))){
const err10 = {instancePath:instancePath+"/maximum_loop_count",schemaPath:"#/properties/maximum_loop_count/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.maximum_loop_count.type,parentSchema:schema31.properties.maximum_loop_count,data:data10};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(typeof data10 == "number"){
if(data10 < 0 || isNaN(data10)){
const err11 = {instancePath:instancePath+"/maximum_loop_count",schemaPath:"#/properties/maximum_loop_count/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.maximum_loop_count,data:data10};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
if(data.logical_operator !== undefined){
let data11 = data.logical_operator;
if(!((data11 === "and") || (data11 === "or"))){
const err12 = {instancePath:instancePath+"/logical_operator",schemaPath:"#/properties/logical_operator/enum",keyword:"enum",params:{allowedValues: schema31.properties.logical_operator.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.logical_operator.enum,parentSchema:schema31.properties.logical_operator,data:data11};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"loop_variables":true,"loop_termination_condition":true,"maximum_loop_count":true,"logical_operator":true},"dynamicProps":false,"dynamicItems":false};

