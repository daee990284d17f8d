// Generated from schemas/components/VariableAggregator.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/VariableAggregator.schema.json","title":"VariableAggregator params","description":"Each group's output (named by group_name) is the first candidate reference whose value is present: not null and not \"\" (0 and false count). No value: null.","type":"object","properties":{"groups":{"type":"array","description":"The groups; each one gives one output.","items":{"type":"object","properties":{"group_name":{"type":["string","null"],"description":"The output key. Names must be unique within the component."},"type":{"type":["string","null"],"description":"The expected type of the value, as the editor shows it (informational)."},"variables":{"type":"array","description":"Candidate references, tried in order: {value: \"cpn@var\"} (the editor's form) or the selector string itself. Blank candidates are skipped.","items":{"anyOf":[{"type":"object","properties":{"value":{"type":["string","null"],"description":"Bare reference: cpn@var.path, sys.x or env.x (braces optional)."}}},{"type":["string","null"]}]}}}}}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/VariableAggregator.schema.json" */;
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
if(data.groups !== undefined){
let data0 = data.groups;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.group_name !== undefined){
let data2 = data1.group_name;
if((typeof data2 !== "string") && (data2 !== null)){
const err0 = {instancePath:instancePath+"/groups/" + i0+"/group_name",schemaPath:"#/properties/groups/items/properties/group_name/type",keyword:"type",params:{type: schema31.properties.groups.items.properties.group_name.type},message:"must be string,null",schema:schema31.properties.groups.items.properties.group_name.type,parentSchema:schema31.properties.groups.items.properties.group_name,data:data2};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data1.type !== undefined){
let data3 = data1.type;
if((typeof data3 !== "string") && (data3 !== null)){
const err1 = {instancePath:instancePath+"/groups/" + i0+"/type",schemaPath:"#/properties/groups/items/properties/type/type",keyword:"type",params:{type: schema31.properties.groups.items.properties.type.type},message:"must be string,null",schema:schema31.properties.groups.items.properties.type.type,parentSchema:schema31.properties.groups.items.properties.type,data:data3};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data1.variables !== undefined){
let data4 = data1.variables;
if(Array.isArray(data4)){
const len1 = data4.length;
for(let i1=0; i1<len1; i1++){
let data5 = data4[i1];
const _errs12 = errors;
let valid6 = false;
const _errs13 = errors;
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if(data5.value !== undefined){
let data6 = data5.value;
if((typeof data6 !== "string") && (data6 !== null)){
const err2 = {instancePath:instancePath+"/groups/" + i0+"/variables/" + i1+"/value",schemaPath:"#/properties/groups/items/properties/variables/items/anyOf/0/properties/value/type",keyword:"type",params:{type: schema31.properties.groups.items.properties.variables.items.anyOf[0].properties.value.type},message:"must be string,null",schema:schema31.properties.groups.items.properties.variables.items.anyOf[0].properties.value.type,parentSchema:schema31.properties.groups.items.properties.variables.items.anyOf[0].properties.value,data:data6};
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
const err3 = {instancePath:instancePath+"/groups/" + i0+"/variables/" + i1,schemaPath:"#/properties/groups/items/properties/variables/items/anyOf/0/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.groups.items.properties.variables.items.anyOf[0].type,parentSchema:schema31.properties.groups.items.properties.variables.items.anyOf[0],data:data5};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
var _valid0 = _errs13 === errors;
valid6 = valid6 || _valid0;
if(_valid0){
var props0 = {};
props0.value = true;
}
const _errs17 = errors;
if((typeof data5 !== "string") && (data5 !== null)){
const err4 = {instancePath:instancePath+"/groups/" + i0+"/variables/" + i1,schemaPath:"#/properties/groups/items/properties/variables/items/anyOf/1/type",keyword:"type",params:{type: schema31.properties.groups.items.properties.variables.items.anyOf[1].type},message:"must be string,null",schema:schema31.properties.groups.items.properties.variables.items.anyOf[1].type,parentSchema:schema31.properties.groups.items.properties.variables.items.anyOf[1],data:data5};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var _valid0 = _errs17 === errors;
valid6 = valid6 || _valid0;
if(!valid6){
const err5 = {instancePath:instancePath+"/groups/" + i0+"/variables/" + i1,schemaPath:"#/properties/groups/items/properties/variables/items/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.groups.items.properties.variables.items.anyOf,parentSchema:schema31.properties.groups.items.properties.variables.items,data:data5};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
else {
errors = _errs12;
if(vErrors !== null){
if(_errs12){
vErrors.length = _errs12;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err6 = {instancePath:instancePath+"/groups/" + i0+"/variables",schemaPath:"#/properties/groups/items/properties/variables/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.groups.items.properties.variables.type,parentSchema:schema31.properties.groups.items.properties.variables,data:data4};
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
const err7 = {instancePath:instancePath+"/groups/" + i0,schemaPath:"#/properties/groups/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.groups.items.type,parentSchema:schema31.properties.groups.items,data:data1};
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
const err8 = {instancePath:instancePath+"/groups",schemaPath:"#/properties/groups/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.groups.type,parentSchema:schema31.properties.groups,data:data0};
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
const err9 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"groups":true},"dynamicProps":false,"dynamicItems":false};

