// Generated from schemas/components/UserFillUp.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/UserFillUp.schema.json","title":"UserFillUp params","description":"Await Response: pauses the run until the user submits the form.","type":"object","properties":{"enable_tips":{"type":"boolean"},"tips":{"type":"string","description":"Shown when the run pauses; may hold references."},"layout_recognize":{"type":["string","null"]},"inputs":{"description":"The input form: {field key: field spec}. RAGFlow writes [] for an empty form.","anyOf":[{"type":"object","additionalProperties":{"type":"object","properties":{"name":{"type":"string"},"type":{"type":"string","description":"line | paragraph | options | file | integer | boolean | object"},"optional":{"type":"boolean"},"options":{"type":"array"},"value":true}}},{"type":"array","maxItems":0}]}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/UserFillUp.schema.json" */;
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
if(data.enable_tips !== undefined){
let data0 = data.enable_tips;
if(typeof data0 !== "boolean"){
const err0 = {instancePath:instancePath+"/enable_tips",schemaPath:"#/properties/enable_tips/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.enable_tips.type,parentSchema:schema31.properties.enable_tips,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.tips !== undefined){
let data1 = data.tips;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/tips",schemaPath:"#/properties/tips/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.tips.type,parentSchema:schema31.properties.tips,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.layout_recognize !== undefined){
let data2 = data.layout_recognize;
if((typeof data2 !== "string") && (data2 !== null)){
const err2 = {instancePath:instancePath+"/layout_recognize",schemaPath:"#/properties/layout_recognize/type",keyword:"type",params:{type: schema31.properties.layout_recognize.type},message:"must be string,null",schema:schema31.properties.layout_recognize.type,parentSchema:schema31.properties.layout_recognize,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.inputs !== undefined){
let data3 = data.inputs;
const _errs8 = errors;
let valid1 = false;
const _errs9 = errors;
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
for(const key0 in data3){
let data4 = data3[key0];
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(data4.name !== undefined){
let data5 = data4.name;
if(typeof data5 !== "string"){
const err3 = {instancePath:instancePath+"/inputs/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/name",schemaPath:"#/properties/inputs/anyOf/0/additionalProperties/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.inputs.anyOf[0].additionalProperties.properties.name.type,parentSchema:schema31.properties.inputs.anyOf[0].additionalProperties.properties.name,data:data5};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data4.type !== undefined){
let data6 = data4.type;
if(typeof data6 !== "string"){
const err4 = {instancePath:instancePath+"/inputs/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/type",schemaPath:"#/properties/inputs/anyOf/0/additionalProperties/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.inputs.anyOf[0].additionalProperties.properties.type.type,parentSchema:schema31.properties.inputs.anyOf[0].additionalProperties.properties.type,data:data6};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data4.optional !== undefined){
let data7 = data4.optional;
if(typeof data7 !== "boolean"){
const err5 = {instancePath:instancePath+"/inputs/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/optional",schemaPath:"#/properties/inputs/anyOf/0/additionalProperties/properties/optional/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.inputs.anyOf[0].additionalProperties.properties.optional.type,parentSchema:schema31.properties.inputs.anyOf[0].additionalProperties.properties.optional,data:data7};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data4.options !== undefined){
let data8 = data4.options;
if(!(Array.isArray(data8))){
const err6 = {instancePath:instancePath+"/inputs/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/options",schemaPath:"#/properties/inputs/anyOf/0/additionalProperties/properties/options/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.inputs.anyOf[0].additionalProperties.properties.options.type,parentSchema:schema31.properties.inputs.anyOf[0].additionalProperties.properties.options,data:data8};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
else {
const err7 = {instancePath:instancePath+"/inputs/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/inputs/anyOf/0/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.inputs.anyOf[0].additionalProperties.type,parentSchema:schema31.properties.inputs.anyOf[0].additionalProperties,data:data4};
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
const err8 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/anyOf/0/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.inputs.anyOf[0].type,parentSchema:schema31.properties.inputs.anyOf[0],data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid0 = _errs9 === errors;
valid1 = valid1 || _valid0;
const _errs22 = errors;
if(Array.isArray(data3)){
if(data3.length > 0){
const err9 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/anyOf/1/maxItems",keyword:"maxItems",params:{limit: 0},message:"must NOT have more than 0 items",schema:0,parentSchema:schema31.properties.inputs.anyOf[1],data:data3};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/anyOf/1/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.inputs.anyOf[1].type,parentSchema:schema31.properties.inputs.anyOf[1],data:data3};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
var _valid0 = _errs22 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err11 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.inputs.anyOf,parentSchema:schema31.properties.inputs,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
else {
errors = _errs8;
if(vErrors !== null){
if(_errs8){
vErrors.length = _errs8;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err12 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"enable_tips":true,"tips":true,"layout_recognize":true,"inputs":true},"dynamicProps":false,"dynamicItems":false};

